/*
 * ix_sqlstate.c: the SQLSTATE of an error, derived from its SQLCODE as
 * Informix JDBC classes them. The message texts are in src/proto/ix_errcat.c.
 */
#include <stddef.h>

#include "ix_client_int.h"

typedef struct sqlstate {
    int code;
    const char *state;
} sqlstate;

static const sqlstate states[] = {
    {100, "02000"},    {-201, "42000"},  {-202, "42000"},  {-236, "42000"},   {-254, "42000"},
    {-349, "42000"},   {-404, "42000"},  {-410, "42000"},  {-481, "42000"},   {-206, "42S02"},
    {-217, "42S22"},   {-310, "42S01"},  {-316, "42S11"},  {-239, "23000"},   {-268, "23000"},
    {-391, "23000"},   {-530, "23000"},  {-691, "23000"},  {-692, "23000"},   {-703, "23000"},
    {-1213, "22018"},  {-1215, "22003"}, {-1226, "22003"}, {-1262, "22007"},  {-1263, "22007"},
    {-1264, "22007"},  {-1202, "22012"}, {-1204, "22008"}, {-1205, "22008"},  {-1206, "22008"},
    {-255, "25000"},   {-256, "25000"},  {-535, "25000"},  {-107, "40001"},   {-143, "40001"},
    {-154, "40001"},   {-243, "40001"},  {-244, "40001"},  {-951, "28000"},   {-952, "28000"},
    {-387, "28000"},   {-908, "08001"},  {-930, "08001"},  {-25596, "08001"}, {-761, "08001"},
    {-25580, "08001"}, {-329, "08004"},  {-408, "08004"},
};

const char *ixc_sqlstate_for(int ixrc, int sqlcode, int logged_in) {
    if (ixrc == IX_OK) return "00000";
    if (ixrc == IX_ESQL && sqlcode) {
        for (size_t i = 0; i < sizeof states / sizeof states[0]; i++)
            if (states[i].code == sqlcode) return states[i].state;
        return "IX000";
    }
    switch (ixrc) {
    case IX_ECONN:
    case IX_ETIMEOUT: return logged_in ? "08006" : "08001";
    case IX_EPROTO: return "08S01";
    case IX_ETLS: return "08000";
    case IX_ENOTSUP: return "HYC00"; /* optional feature not implemented */
    default: return "HY000";
    }
}
