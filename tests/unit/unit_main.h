/* The main() of a cmocka unit test program, the same in every one: runs the
 * tests it is given (cmocka_unit_test(name), ...) as one group, with no
 * group setup or teardown, and exits with the number of failures.
 * After the cmocka headers:  UNIT_TEST_MAIN(cmocka_unit_test(a), ...) */
#ifndef VIMANA_TESTS_UNIT_MAIN_H
#define VIMANA_TESTS_UNIT_MAIN_H

#define UNIT_TEST_MAIN(...)                                                                                            \
    int main(void)                                                                                                     \
    {                                                                                                                  \
        const struct CMUnitTest tests[] = {__VA_ARGS__};                                                               \
        return cmocka_run_group_tests(tests, NULL, NULL);                                                              \
    }

#endif
