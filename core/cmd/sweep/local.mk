# `vimana sweep`: many runs of a sweep file in a worker pool, a table and a
# plot (docs/sweep.md). Listed apart for its unit test.
sweep_sources = core/cmd/sweep/sweep.c core/cmd/sweep/sweep.h \
	core/cmd/sweep/sweep_spec.c core/cmd/sweep/sweep_spec.h \
	core/cmd/sweep/sweep_points.c core/cmd/sweep/sweep_points.h \
	core/cmd/sweep/sweep_config.c core/cmd/sweep/sweep_config.h \
	core/cmd/sweep/sweep_result.c core/cmd/sweep/sweep_result.h \
	core/cmd/sweep/sweep_runner.c core/cmd/sweep/sweep_runner.h \
	core/cmd/sweep/sweep_output.c core/cmd/sweep/sweep_output.h \
	core/cmd/sweep/sweep_plot.c core/cmd/sweep/sweep_plot.h \
	core/cmd/sweep/sweep_slurm.c core/cmd/sweep/sweep_slurm.h \
	core/cmd/sweep/sweep_genspec.c core/cmd/sweep/sweep_genspec.h \
	core/cmd/sweep/sweep_generate.c core/cmd/sweep/sweep_generate.h \
	core/cmd/sweep/sweep_lock.c core/cmd/sweep/sweep_lock.h
