# `vimana-et timeline`: simulator log or `vimana --report` JSON ->
# Chrome/Perfetto trace events (chakra_timeline_visualizer's job).
timeline_sources = \
	tools/timeline/trace_record.c tools/timeline/trace_record.h \
	tools/timeline/node_category.c tools/timeline/node_category.h \
	tools/timeline/open_events.c tools/timeline/open_events.h \
	tools/timeline/ref_trace.c tools/timeline/ref_trace.h \
	tools/timeline/chrome_trace.c tools/timeline/chrome_trace.h \
	tools/timeline/log_timeline.c tools/timeline/log_timeline.h \
	tools/timeline/report_model.c tools/timeline/report_model.h \
	tools/timeline/report_timeline.c tools/timeline/report_timeline.h \
	tools/timeline/output_file.c tools/timeline/output_file.h
libvimana_tools_a_SOURCES += $(timeline_sources) tools/timeline/timeline_cmd.c
