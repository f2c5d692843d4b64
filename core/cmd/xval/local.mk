# `vimana xval`: one workload on several backends, compared (docs/xval.md).
# Listed apart so that its unit test can link the writers.
xval_sources = core/cmd/xval/xval.c core/cmd/xval/xval.h core/cmd/xval/xval_row.h \
	core/cmd/xval/xval_child.c core/cmd/xval/xval_child.h \
	core/cmd/xval/xval_output.c core/cmd/xval/xval_output.h \
	core/cmd/xval/xval_plot.c core/cmd/xval/xval_plot.h \
	core/cmd/xval/xval_report.c core/cmd/xval/xval_report.h \
	core/cmd/xval/xval_diverge.c core/cmd/xval/xval_diverge.h \
	core/cmd/xval/xval_diverge_output.c core/cmd/xval/xval_diverge_output.h \
	core/cmd/xval/xval_diverge_plot.c core/cmd/xval/xval_diverge_plot.h \
	$(out_chart_sources)
