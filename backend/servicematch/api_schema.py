"""Print the API's OpenAPI schema, from which the build generates the browser's TypeScript types.

    python -m servicematch.api_schema > schema.json   (make api-types runs it)
"""

from __future__ import annotations

import json
import logging
import sys


def main() -> None:
    from servicematch.app import create_app
    from servicematch.settings import Settings

    # Start-up's notices are not part of the schema, nor is its try to publish the partners list
    # into a database that a fresh clone has not made yet.
    logging.disable(logging.CRITICAL)
    # Documentation on: production settings may switch /openapi.json off, the schema is the same.
    # A database in memory: printing the schema leaves no file behind.
    settings = Settings(environment="development", api_docs=True, database_url="sqlite://")
    json.dump(create_app(settings).openapi(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
