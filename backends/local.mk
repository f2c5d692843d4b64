# Network backends: loadable modules, each exporting only
# vimana_backend_entry. They link the installed event-queue library and a
# private copy of the network-YAML reader (which uses the base utilities of
# libvimana_util), never the simulator. BACKEND_CPPFLAGS (Makefile.am) shows
# them the public headers and backends/ only.
noinst_LTLIBRARIES += backends/common/libnetwork_yaml.la
backends_common_libnetwork_yaml_la_SOURCES = \
	backends/common/network_yaml.c backends/common/network_yaml.h
backends_common_libnetwork_yaml_la_CPPFLAGS = $(BACKEND_CPPFLAGS) $(UTIL_CPPFLAGS)
backends_common_libnetwork_yaml_la_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
backends_common_libnetwork_yaml_la_LIBADD = libvimana_util.la $(YAML_LIBS) -lm

BACKEND_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

backend_LTLIBRARIES += backends/analytical/analytical.la
backends_analytical_analytical_la_SOURCES = backends/analytical/analytical.c
# (msg_escape from the base utilities: scripts/check-layers lists it as a
# known exception until the backend toolkit offers it.)
backends_analytical_analytical_la_CPPFLAGS = $(BACKEND_CPPFLAGS) $(UTIL_CPPFLAGS)
backends_analytical_analytical_la_CFLAGS = $(BACKEND_CFLAGS)
backends_analytical_analytical_la_LDFLAGS = $(AM_LDFLAGS) $(backend_module_ldflags)
backends_analytical_analytical_la_LIBADD = backends/common/libnetwork_yaml.la libvimana_evq.la

backend_LTLIBRARIES += backends/congestion_aware/congestion_aware.la
backends_congestion_aware_congestion_aware_la_SOURCES = backends/congestion_aware/congestion_aware.c
backends_congestion_aware_congestion_aware_la_CPPFLAGS = $(BACKEND_CPPFLAGS) $(UTIL_CPPFLAGS)
backends_congestion_aware_congestion_aware_la_CFLAGS = $(BACKEND_CFLAGS)
backends_congestion_aware_congestion_aware_la_LDFLAGS = $(AM_LDFLAGS) $(backend_module_ldflags)
backends_congestion_aware_congestion_aware_la_LIBADD = backends/common/libnetwork_yaml.la libvimana_evq.la

EXTRA_DIST += backends/ns3_shim backends/garnet_stub
