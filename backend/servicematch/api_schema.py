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

    logging.disable(logging.WARNING)  # start-up notices are not part of the schema
    # Documentation on: production settings may switch /openapi.json off, the schema is the same.
    settings = Settings(environment="development", api_docs=True)
    json.dump(create_app(settings).openapi(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
