/* SPDX-License-Identifier: Apache-2.0
 * UPPER / LOWER / UCASE / LCASE and case-insensitive (utf8mb4_general_ci) comparison beyond
 * ASCII: Latin-1 supplement, Latin Extended-A, Greek, Cyrillic. */
#include <criterion/criterion.h>
#include <string.h>

#include "plan_testutil.h"

Test(plan_casefold, upper_lower_non_ascii)
{
    static const pair p[] = {
            {"select upper('MixEd ü')", "MIXED Ü"},
            {"select lower('É')", "é"},
            {"select ucase('àéîõü ÿ')", "ÀÉÎÕÜ Ÿ"},
            {"select lcase('ÀÉÎÕÜ')", "àéîõü"},
            {"select upper('ąčęłńšž')", "ĄČĘŁŃŠŽ"},
            {"select lower('ĄČĘŁŃŠŽ')", "ąčęłńšž"},
            {"select upper('αβγ ωσ')", "ΑΒΓ ΩΣ"},
            {"select lower('ΑΒΓ')", "αβγ"},
            {"select upper('привет мир')", "ПРИВЕТ МИР"},
            {"select lower('ПРИВЕТ')", "привет"},
            {"select upper('abc 123 ǆ')", "ABC 123 Ǆ"},
            {"select upper('日本語 x')", "日本語 X"},
            {"select upper('ß')", "ß"},
            {"select lower(null)", "NULL"},
            {"select length(upper('ü'))", "2"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}

Test(plan_casefold, invalid_utf8_passes_through)
{
    tx *t = tx_new();
    /* 0xFF and a lone continuation byte are not UTF-8: kept as they are, ASCII around is mapped. */
    cr_assert_eq(tx_exec(t, "select upper(x'61FF80c3')"), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "a\xFF\x80\xC3", "binary argument is not folded");
    cr_assert_eq(tx_exec(t, "select upper(convert(x'61FF80c3' using utf8mb4))"), DB_OK);
    cr_assert_str_eq(tx_cell(t, 0, 0), "A\xFF\x80\xC3");
    tx_free(t);
}

Test(plan_casefold, upper_of_binary_is_unchanged)
{
    tx *t = tx_new();
    cr_assert_str_eq(tx_one(t, "select upper(cast('é' as binary))"), "é");
    cr_assert_str_eq(tx_one(t, "select lower(cast('É' as binary))"), "É");
    tx_free(t);
}

Test(plan_casefold, general_ci_comparison_non_ascii)
{
    static const pair p[] = {
            {"select 'é' = 'É'", "1"},
            {"select 'Ü' = 'ü '", "1"},
            {"select 'straße' = 'STRASSE'", "0"},
            {"select 'Ωμέγα' = 'ΩΜΈΓΑ'", "1"},
            {"select 'Москва' = 'МОСКВА'", "1"},
            {"select 'ł' = 'Ł'", "1"},
            {"select 'é' = 'É' collate utf8mb4_bin", "0"},
            {"select 'a' collate utf8mb4_bin = 'A'", "0"},
            {"select 'a' collate utf8mb4_general_ci = 'A'", "1"},
            {"select 'a' < '_'", "1"},
            {"select 'Ä' in ('x', 'ä')", "1"},
            {"select greatest('a', 'Ä') = 'ä'", "1"},
            {"select 'ÿ' between 'Ÿ' and 'Ÿ'", "1"},
    };
    check_all(p, sizeof p / sizeof p[0]);
}
