"""Pages for the density family's tests: an article among navigation, in English and in
Chinese, and the family's names and classes."""

from __future__ import annotations

from scrapy_boilerplate.filters.density import (
    BTEFilter,
    CEPRFilter,
    CETDFilter,
    CETDTPCFilter,
    CETRFilter,
)

METHODS = ["cetd", "cetd_tpc", "cepr", "cetr", "bte"]
CLASSES = [CETDFilter, CETDTPCFilter, CEPRFilter, CETRFilter, BTEFilter]


PARAS = [
    "The city council voted on Tuesday to expand the network of protected bicycle lanes, a "
    "decision that followed months of public hearings and a study of traffic injuries.",
    "Supporters said the plan would make streets safer for children who ride to school, while "
    "several shop owners worried that losing parking spaces would hurt their business.",
    "The first lanes will be built next spring along the river, where the number of cyclists "
    "has doubled since the bridge reopened, according to figures from the transport office.",
    "Officials expect the work to take three years and to cost less than the repair of a "
    "single highway interchange, which the mayor described as a bargain for the city.",
]


def page(
    paras: list[str],
    nav: list[str],
    title: str,
    extra: str = "",
    chrome: tuple[str, ...] = ("Home", "Log in", "About us", "Privacy", "Terms of use"),
) -> str:
    """A page laid out as sites write them: a header, a long link list, the article (one
    paragraph per line), a footer of links (``chrome``: the header's and footer's links)."""
    home, login, about, privacy, terms = chrome
    links = "\n".join(f'      <li><a href="/s/{i}">{text}</a></li>' for i, text in enumerate(nav))
    body = "\n".join(f"      <p>{p}</p>" for p in paras)
    return f"""<!DOCTYPE html>
<html>
<head><title>{title}</title></head>
<body>
  <div id="header"><a href="/">{home}</a> | <a href="/login">{login}</a></div>
  <div id="nav">
    <ul>
{links}
    </ul>
  </div>
  <div id="article">
    <h1>{title}</h1>
{body}
{extra}
  </div>
  <div id="footer">
    <a href="/about">{about}</a> <a href="/privacy">{privacy}</a> <a href="/terms">{terms}</a>
  </div>
</body>
</html>"""


NAV = [f"Section number {i}" for i in range(12)]
ARTICLE_PAGE = page(PARAS, NAV, "Council expands bicycle lanes")


ZH_PARAS = [
    "市议会星期二投票决定扩建受保护的自行车道网络，这一决定是在数月的公开听证会和一项交通伤害研究之后作出的。",
    "支持者表示，该计划将使骑车上学的孩子们的街道更加安全，而一些店主担心失去停车位会损害他们的生意。",
    "第一批车道将于明年春天沿河修建，据交通办公室的数据，自从大桥重新开放以来，那里的骑车人数增加了一倍。",
    "官员们预计这项工程需要三年时间，费用还不到修复一座高速公路立交桥的费用，市长称这对城市来说很划算。",
]
ZH_NAV = ["首页", "新闻中心", "国际新闻", "国内新闻", "财经频道", "体育频道", "娱乐频道", "科技频道",
          "汽车频道", "房产频道", "教育频道", "旅游频道"]  # fmt: skip
ZH_PAGE = page(
    ZH_PARAS,
    ZH_NAV,
    "市议会扩建自行车道",
    chrome=("首页", "登录", "关于我们", "隐私政策", "使用条款"),
)
