# `vimana-et calibrate-compute`: GEMM measurements -> a device file.
libvimana_tools_a_SOURCES += \
	tools/calibrate_compute/cc_table.c tools/calibrate_compute/cc_table.h \
	tools/calibrate_compute/cc_fit.c tools/calibrate_compute/cc_fit.h \
	tools/calibrate_compute/cc_kineto.c tools/calibrate_compute/cc_kineto.h \
	tools/calibrate_compute/cmd_calibrate_compute.c
