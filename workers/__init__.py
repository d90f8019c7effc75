"""Everything that runs matches: the command line now; the sandboxed runner and Celery later."""
