"""A Scrapy project that crawls a small local news site and keeps clean articles."""
