"""A composition root: serving the built React site. Hashed assets and public files, the pages
rendered at build time, index.html with each route's metadata and first-render data, robots.txt
and the sitemap, all from one route table (routes.json) the browser's router reads too.

It is listed among the roots: it answers every path no API route took, so create_app installs
it after every room's routers, and no room imports it.
"""
