# Network backends: loadable modules, each exporting only
# vimana_backend_entry. They link the installed event-queue library and a
# private copy of the network-YAML reader (with the two small core/util
# helpers it needs), never the simulator.
noinst_LTLIBRARIES += backends/common/libnetwork_yaml.la
backends_common_libnetwork_yaml_la_SOURCES = \
	backends/common/network_yaml.c backends/common/network_yaml.h \
	core/util/input_file.c core/util/input_file.h \
	core/util/msg_escape.c core/util/msg_escape.h
backends_common_libnetwork_yaml_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends
backends_common_libnetwork_yaml_la_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
backends_common_libnetwork_yaml_la_LIBADD = $(YAML_LIBS) -lm

BACKEND_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/backends
BACKEND_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

backend_LTLIBRARIES += backends/analytical/analytical.la
backends_analytical_analytical_la_SOURCES = backends/analytical/analytical.c
backends_analytical_analytical_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
backends_analytical_analytical_la_CFLAGS = $(BACKEND_CFLAGS)
backends_analytical_analytical_la_LDFLAGS = $(AM_LDFLAGS) $(backend_module_ldflags)
backends_analytical_analytical_la_LIBADD = backends/common/libnetwork_yaml.la libvimana_evq.la

backend_LTLIBRARIES += backends/congestion_aware/congestion_aware.la
backends_congestion_aware_congestion_aware_la_SOURCES = backends/congestion_aware/congestion_aware.c
backends_congestion_aware_congestion_aware_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
backends_congestion_aware_congestion_aware_la_CFLAGS = $(BACKEND_CFLAGS)
backends_congestion_aware_congestion_aware_la_LDFLAGS = $(AM_LDFLAGS) $(backend_module_ldflags)
backends_congestion_aware_congestion_aware_la_LIBADD = backends/common/libnetwork_yaml.la libvimana_evq.la

EXTRA_DIST += backends/ns3_shim backends/garnet_stub
