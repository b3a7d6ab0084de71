"""Every table the app declares, in one MetaData: what migrations and tests compare against.

Domains declare their models on `servicematch.kernel.orm.Base` and never import this module,
so importing each of them here makes no cycle.
"""

from __future__ import annotations

from servicematch.access import models as access_models
from servicematch.buyer import models as buyer_models
from servicematch.catalog import partners as catalog_models
from servicematch.console import models as console_models
from servicematch.delivery import models as delivery_models
from servicematch.events import models as events_models
from servicematch.intake import models as intake_models
from servicematch.kernel.orm import Base
from servicematch.ledger import models as ledger_models
from servicematch.ops import heartbeat as ops_models
from servicematch.portal import models as portal_models
from servicematch.privacy import models as privacy_models
from servicematch.quality import suppression as quality_models
from servicematch.reporting import models as reporting_models
from servicematch.routing import models as routing_models

metadata = Base.metadata
DOMAIN_MODELS = (catalog_models, intake_models, delivery_models, ledger_models, routing_models, events_models,
                 access_models, portal_models, buyer_models, console_models, privacy_models, reporting_models,
                 quality_models, ops_models)
