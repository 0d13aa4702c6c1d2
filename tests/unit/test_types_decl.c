/* test_types_decl.c: declared type texts (ixt_type_decl) and the decimal
 * split behind ix_column_get_decimal (ixt_dec_split), in src/types. */
#include <string.h>

#include "tap.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"
#include "types/ix_types.h"

static void decl_is(int code, uint32_t enclen, const char *want) {
    char buf[64];
    int n = ixt_type_decl(code, enclen, buf, sizeof buf);
    CHECK(n == (int)strlen(want) && strcmp(buf, want) == 0,
          "code %d enclen 0x%x: \"%s\" want \"%s\"", code, enclen, buf, want);
}

static void test_decl(void) {
    decl_is(IX_T_DECIMAL, 10 << 8 | 2, "DECIMAL(10,2)");
    decl_is(IX_T_DECIMAL, 16 << 8 | IXT_DEC_FLOAT, "DECIMAL(16)");
    decl_is(IX_T_MONEY, 8 << 8 | 2, "MONEY(8,2)");
    decl_is(IX_T_CHAR | IXT_TF_NOTNULL, 5, "CHAR(5)");
    decl_is(IX_T_NCHAR, 32767, "NCHAR(32767)");
    decl_is(IX_T_VARCHAR, 20, "VARCHAR(20)");
    decl_is(IX_T_VARCHAR, 4 << 8 | 20, "VARCHAR(20,4)");
    decl_is(IX_T_NVARCHAR, 255, "NVARCHAR(255)");
    decl_is(IX_T_LVARCHAR, 2048, "LVARCHAR(2048)");
    decl_is(IX_T_DATETIME, IXT_QUAL(17, IXT_TU_YEAR, IXT_TU_F(3)), "DATETIME YEAR TO FRACTION(3)");
    decl_is(IX_T_DATETIME, ixt_dt_qual(IXT_TU_HOUR, IXT_TU_MINUTE), "DATETIME HOUR TO MINUTE");
    decl_is(IX_T_DATETIME, ixt_dt_qual(IXT_TU_FRACTION, IXT_TU_F(5)),
            "DATETIME FRACTION TO FRACTION(5)");
    decl_is(IX_T_INTERVAL, ixt_iv_qual(3, IXT_TU_DAY, IXT_TU_SECOND), "INTERVAL DAY(3) TO SECOND");
    decl_is(IX_T_INTERVAL, ixt_iv_qual(2, IXT_TU_DAY, IXT_TU_SECOND), "INTERVAL DAY TO SECOND");
    decl_is(IX_T_INTERVAL, ixt_iv_qual(4, IXT_TU_YEAR, IXT_TU_MONTH), "INTERVAL YEAR TO MONTH");
    decl_is(IX_T_INTERVAL, ixt_iv_qual(9, IXT_TU_YEAR, IXT_TU_MONTH), "INTERVAL YEAR(9) TO MONTH");
    decl_is(IX_T_INTERVAL, ixt_iv_qual(5, IXT_TU_HOUR, IXT_TU_F(2)),
            "INTERVAL HOUR(5) TO FRACTION(2)");
    decl_is(IX_T_INTERVAL, ixt_iv_qual(0, IXT_TU_FRACTION, IXT_TU_F(3)),
            "INTERVAL FRACTION TO FRACTION(3)");
    decl_is(IX_T_INTEGER, 4, "INTEGER");
    decl_is(IX_T_SET, 0, "SET");
    decl_is(IX_T_MULTISET, 0, "MULTISET");
    decl_is(IX_T_LIST, 0, "LIST");
    decl_is(IX_T_BOOLEAN, 1, "BOOLEAN");
    char buf[8] = "zzzzzzz";
    CHECK(ixt_type_decl(IX_T_DATETIME, 0x0bad, buf, sizeof buf) == -1, "illegal qualifier");
    CHECK(ixt_type_decl(IX_T_INTERVAL, IXT_QUAL(3, IXT_TU_DAY, IXT_TU_SECOND), buf, sizeof buf) ==
              -1,
          "digits that disagree with the units");
    CHECK(ixt_type_decl(IX_T_DECIMAL, 10 << 8 | 2, buf, sizeof buf) == 13 &&
              strcmp(buf, "DECIMAL") == 0,
          "cut to fit: \"%s\"", buf);
}

static void split_is(const char *text, int scale, int sign, const char *digits, int sc) {
    ixt_decimal d;
    char buf[40];
    int sg = 0, got = 99;
    CHECK(ixt_dec_from_text(&d, text, strlen(text)) == IX_OK, "parse %s", text);
    int n = ixt_dec_split(&d, scale, &sg, buf, sizeof buf, &got);
    CHECK(n == (int)strlen(digits) && strcmp(buf, digits) == 0 && sg == sign && got == sc,
          "%s at %d: %d \"%s\" %d, want %d \"%s\" %d", text, scale, sg, n > 0 ? buf : "", got, sign,
          digits, sc);
}

static void test_split(void) {
    split_is("1.5", 2, 1, "150", 2);
    split_is("-123.45", 2, -1, "12345", 2);
    split_is("0", 2, 1, "0", 2);
    split_is("0", IXT_DEC_FLOAT, 1, "0", 0);
    split_is("-0.001", IXT_DEC_FLOAT, -1, "1", 3);
    split_is("1e20", IXT_DEC_FLOAT, 1, "1", -20);
    split_is("1.005", 2, 1, "101", 2); /* half away from zero */
    split_is("-1.005", 2, -1, "101", 2);
    split_is("0.004", 2, 1, "0", 2); /* rounds to zero: sign + */
    split_is("-0.004", 2, 1, "0", 2);
    split_is("12.5", 0, 1, "13", 0);
    ixt_decimal d;
    char small[3];
    int sg, sc;
    ixt_dec_from_text(&d, "123", 3);
    CHECK(ixt_dec_split(&d, 0, &sg, small, sizeof small, &sc) == IX_ERANGE, "digits do not fit");
    ixt_dec_null(&d);
    CHECK(ixt_dec_split(&d, 0, &sg, small, sizeof small, &sc) == IX_NULL_VALUE, "NULL");
}

int main(void) {
    test_decl();
    test_split();
    return tap_done();
}
