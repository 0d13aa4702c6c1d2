"""What the Informix dialect (and ixd) support, for SQLAlchemy's suite."""
from sqlalchemy.testing import exclusions
from sqlalchemy.testing.requirements import SuiteRequirements

closed = exclusions.closed
open_ = exclusions.open


class Requirements(SuiteRequirements):
    @property
    def schemas(self):
        return closed()

    @property
    def temp_table_reflection(self):
        return closed()

    @property
    def temporary_tables(self):
        return closed()

    @property
    def temporary_views(self):
        return closed()

    @property
    def table_ddl_if_exists(self):
        return closed()

    @property
    def comment_reflection(self):
        return closed()

    @property
    def returning(self):
        return closed()

    @property
    def sequences(self):
        return open_()

    @property
    def savepoints(self):
        return open_()

    @property
    def views(self):
        return open_()

    @property
    def view_reflection(self):
        return open_()

    @property
    def foreign_key_constraint_reflection(self):
        return open_()

    @property
    def unique_constraint_reflection(self):
        return open_()

    @property
    def check_constraint_reflection(self):
        return open_()

    @property
    def index_reflection(self):
        return open_()

    @property
    def primary_key_constraint_reflection(self):
        return open_()

    @property
    def isolation_level(self):
        return open_()

    def get_isolation_levels(self, config):
        return {"default": "READ COMMITTED",
                "supported": ["AUTOCOMMIT", "READ UNCOMMITTED", "READ COMMITTED",
                              "REPEATABLE READ", "SERIALIZABLE", "CURSOR STABILITY"]}

    @property
    def autocommit(self):
        return open_()

    @property
    def json_type(self):
        return closed()

    @property
    def datetime_timezone(self):
        return closed()

    @property
    def time_timezone(self):
        return closed()

    @property
    def precision_numerics_enotation_large(self):
        return closed()

    @property
    def implicit_decimal_binds(self):
        return open_()

    @property
    def ctes(self):
        return closed()

    @property
    def window_functions(self):
        return closed()

    @property
    def computed_columns(self):
        return closed()

    @property
    def identity_columns(self):
        return closed()

    @property
    def unicode_ddl(self):
        return closed()

    @property
    def fetch_first(self):
        return closed()

    @property
    def fetch_offset(self):
        return closed()

    @property
    def empty_inserts(self):
        return closed()

    @property
    def insert_from_select(self):
        return open_()

    @property
    def reflects_pk_names(self):
        return open_()

    @property
    def two_phase_transactions(self):
        return closed()

    # Informix's DATETIME/INTERVAL FRACTION has 5 digits (10 us units)
    @property
    def datetime_microseconds(self):
        return closed()

    @property
    def time_microseconds(self):
        return closed()

    @property
    def timestamp_microseconds(self):
        return closed()

    # FIRST / SKIP take an integer or a parameter, not an expression
    @property
    def sql_expression_limit_offset(self):
        return closed()

    @property
    def supports_is_distinct_from(self):
        return closed()
