# `vimana-et link`: PyTorch host ET + Kineto trace -> linked ET+ JSON.
# The JSON reading and writing is self-contained (no json-c: a DOM of a
# 1 GB trace would not fit the memory goal).
trace_link_sources = \
	tools/trace_link/diag.c tools/trace_link/diag.h \
	tools/trace_link/input_file.c tools/trace_link/input_file.h \
	tools/trace_link/pynum.c tools/trace_link/pynum.h \
	tools/trace_link/json_scan.c tools/trace_link/json_scan.h \
	tools/trace_link/py_json_out.c tools/trace_link/py_json_out.h \
	tools/trace_link/span_intern.c tools/trace_link/span_intern.h \
	tools/trace_link/ts_sort.c tools/trace_link/ts_sort.h \
	tools/trace_link/host_trace.c tools/trace_link/host_trace.h \
	tools/trace_link/kineto_trace.c tools/trace_link/kineto_trace.h \
	tools/trace_link/exclusive_dur.c tools/trace_link/exclusive_dur.h \
	tools/trace_link/inter_thread.c tools/trace_link/inter_thread.h \
	tools/trace_link/gpu_launcher.c tools/trace_link/gpu_launcher.h \
	tools/trace_link/sync_dep.c tools/trace_link/sync_dep.h \
	tools/trace_link/link_plan.c tools/trace_link/link_plan.h \
	tools/trace_link/et_plus_writer.c tools/trace_link/et_plus_writer.h
libvimana_tools_a_SOURCES += $(trace_link_sources) tools/trace_link/link_cmd.c
