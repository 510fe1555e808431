"""The service: the archive served by Datasette with Scorebook's plugin (``scorebook serve``),
a layer of its own beside the CLI. It wires the library below it (records, analyze) to HTTP:

- ``settings``: the server's configuration and the request bodies, as pydantic models;
- ``guard``: the ASGI middleware in front of everything (host, credentials, body size and
  read time) and the HTTP protocol's header deadline;
- ``accounts``: sign-in with a password (hashes kept in a file of their own, checked off the
  event loop, rate-limited);
- ``writer``: the one thread every write of the server goes through;
- ``jobs``: the queue of analyses and the worker that runs it, each job bounded in time;
- ``pages``, ``api``: the HTML pages (templates in ``templates/``) and the JSON API;
- ``plugin``: the Datasette hooks; ``server``: ``serve``.
"""
