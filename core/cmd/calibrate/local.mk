# `vimana calibrate`: nccl-tests tables in, a fitted preset out
# (docs/calibrate.md).
calibrate_sources = core/cmd/calibrate/calibrate.c core/cmd/calibrate/calibrate.h \
	core/cmd/calibrate/calibrate_input.c core/cmd/calibrate/calibrate_input.h \
	core/cmd/calibrate/calibrate_fit.c core/cmd/calibrate/calibrate_fit.h \
	core/cmd/calibrate/calibrate_output.c core/cmd/calibrate/calibrate_output.h
