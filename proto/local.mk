# protoc-c generates the C binding of the Chakra schema at build time.
proto/et_def.pb-c.c proto/et_def.pb-c.h: $(srcdir)/proto/et_def.proto
	$(AM_V_GEN)$(MKDIR_P) proto && \
	$(PROTOC_C) --proto_path=$(srcdir)/proto --c_out=proto $(srcdir)/proto/et_def.proto

BUILT_SOURCES += proto/et_def.pb-c.c proto/et_def.pb-c.h
CLEANFILES += proto/et_def.pb-c.c proto/et_def.pb-c.h
EXTRA_DIST += proto/et_def.proto
