# Output writers: JSON (the report, in the core library), CSV and SVG charts
# (the sweep and xval outputs, in the program and their unit tests).
libvimana_core_la_SOURCES += core/out/json_out.c core/out/json_out.h
out_chart_sources = core/out/svg_chart.c core/out/svg_chart.h core/out/csv_out.c core/out/csv_out.h
