# `vimana sweep`: the sweep file reader and the grid order (unit), and
# end-to-end sweeps: exact results against direct runs, resume, failing
# points, SIGINT / SIGKILL and restart, generated workloads (generate.KEY
# axes), one-line errors for bad sweep files; a job array on a real Slurm
# (sweep_slurm_real.sh: opt-in, see scripts/slurm-local).
UNIT_TESTS += tests/unit/test_sweep
tests_unit_test_sweep_SOURCES = tests/unit/test_sweep.c $(TEMP_TEXT) \
	core/cmd/sweep/sweep_spec.c core/cmd/sweep/sweep_points.c core/cmd/sweep/sweep_genspec.c
tests_unit_test_sweep_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_sweep_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
tests_unit_test_sweep_LDADD = libvimana_core.la $(CMOCKA_LIBS) $(YAML_LIBS)

# The plot on hand-made results: the legend's width, bars for categories.
UNIT_TESTS += tests/unit/test_sweep_plot
tests_unit_test_sweep_plot_SOURCES = tests/unit/test_sweep_plot.c \
	core/cmd/sweep/sweep_spec.c core/cmd/sweep/sweep_points.c core/cmd/sweep/sweep_genspec.c core/cmd/sweep/sweep_output.c \
	core/cmd/sweep/sweep_result.c core/cmd/sweep/sweep_plot.c core/out/svg_chart.c core/out/csv_out.c core/cmd/child_run.c
tests_unit_test_sweep_plot_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_sweep_plot_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS) $(JSON_C_CFLAGS)
tests_unit_test_sweep_plot_LDADD = libvimana_core.la $(CMOCKA_LIBS) $(YAML_LIBS) $(JSON_C_LIBS) -lm

SHELL_TESTS += tests/e2e/sweep.sh tests/e2e/sweep_generate.sh tests/e2e/sweep_resume.sh \
	tests/e2e/sweep_errors.sh tests/e2e/sweep_slurm.sh tests/e2e/sweep_slurm_real.sh
EXTRA_DIST += tests/e2e/sweep_lib.sh
