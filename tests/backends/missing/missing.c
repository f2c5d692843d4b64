/* A library that tests/backends/needs_missing.la needs and that is never
 * on the dynamic linker's path. */
int vimana_test_missing_value(void);

int vimana_test_missing_value(void)
{
    return 1;
}
