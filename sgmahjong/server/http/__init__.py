"""The HTTP and WebSocket edge of the server: the Starlette application (``app.create_app``), one module
of routes per area, the middleware and the uvicorn protocol guard.

The only package that imports Starlette's routing. It may import everything else of the server
(tables, cluster, store, settings, protocol); nothing else of the server imports it.
"""
