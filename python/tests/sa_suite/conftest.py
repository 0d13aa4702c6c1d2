"""pytest set-up of SQLAlchemy's dialect compliance suite for
informix+ixdb (run_sa_suite.py starts ixd and passes --dburi)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pytest  # noqa: E402
from sqlalchemy.dialects import registry  # noqa: E402

registry.register("informix.ixdb", "ixdb.sqlalchemy.base", "IxdbDialect")
pytest.register_assert_rewrite("sqlalchemy.testing.assertions")

from sqlalchemy.testing.plugin.pytestplugin import *  # noqa: E402,F401,F403
