"""Imported by the process executor's fork server when the crawl reads metadata: dateparser's
first call (2.1 s, its locale tables) is made once there, and every worker forked from the
server starts with it done, so that a worker's pages read their dates under any
``BOILERPLATE_TIMEOUT`` (cold, the call waits for 3 s of a page's budget: under a shorter
timeout it would never be made) and no worker builds the tables again.

A module and not a function because a fork server's preload is a list of module names.
"""

from ..metadata.date_budget import warm_up

WARM = warm_up()
