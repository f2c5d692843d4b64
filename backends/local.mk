# Network backends: loadable modules, each exporting only
# vimana_backend_entry. They are built on the backend toolkit, the one
# library a backend links (installed, for third-party backends too), and
# never on the simulator.

# The backend toolkit: event queue, default descriptor functions, link
# table, network YAML reader, link faults (public headers
# vimana/backend_toolkit.h, event_queue.h, network_yaml.h, topology_graph.h,
# link_faults.h). It links libyaml only; the two small
# core/util helpers the YAML reader needs come from libvimana_util.
lib_LTLIBRARIES += libvimana_backend.la
libvimana_backend_la_SOURCES = \
	backends/toolkit/event_queue.c backends/toolkit/toolkit.c backends/toolkit/network_yaml.c \
	backends/toolkit/topology_graph.c backends/toolkit/topology_yaml.c backends/toolkit/net_layout.c backends/toolkit/topology_yaml.h \
	backends/toolkit/link_faults.c
libvimana_backend_la_CPPFLAGS = $(PUBLIC_CPPFLAGS) $(UTIL_CPPFLAGS)
libvimana_backend_la_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
# -Bsymbolic-functions: the toolkit's calls into its own event queue are
# direct calls, not through the PLT (they are on the per-message path).
libvimana_backend_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -Wl,-Bsymbolic-functions \
	-export-symbols-regex '^vimana_(evq|bt|net|topo)_'
libvimana_backend_la_LIBADD = libvimana_util.la $(YAML_LIBS) -lm
pkginclude_HEADERS += core/include/vimana/backend_toolkit.h core/include/vimana/event_queue.h \
	core/include/vimana/network_yaml.h core/include/vimana/network_api.h \
	core/include/vimana/topology_graph.h core/include/vimana/net_layout.h \
	core/include/vimana/link_faults.h

BACKEND_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden

backend_LTLIBRARIES += backends/analytical/analytical.la
backends_analytical_analytical_la_SOURCES = backends/analytical/analytical.c
backends_analytical_analytical_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
backends_analytical_analytical_la_CFLAGS = $(BACKEND_CFLAGS)
backends_analytical_analytical_la_LDFLAGS = $(AM_LDFLAGS) $(backend_module_ldflags)
backends_analytical_analytical_la_LIBADD = libvimana_backend.la

backend_LTLIBRARIES += backends/congestion_aware/congestion_aware.la
backends_congestion_aware_congestion_aware_la_SOURCES = backends/congestion_aware/congestion_aware.c
backends_congestion_aware_congestion_aware_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
backends_congestion_aware_congestion_aware_la_CFLAGS = $(BACKEND_CFLAGS)
backends_congestion_aware_congestion_aware_la_LDFLAGS = $(AM_LDFLAGS) $(backend_module_ldflags)
backends_congestion_aware_congestion_aware_la_LIBADD = libvimana_backend.la

# ns3_shim: real ns-3 (Debian libns3-dev 3.37) behind the C descriptor; the
# one C++ module of the tree, built when configure finds ns-3 (--with-ns3 /
# --without-ns3). The topology and routes are C (shim_topology.c, on the
# toolkit); only ns3_shim.cc talks to ns-3.
if HAVE_NS3
backend_LTLIBRARIES += backends/ns3_shim/ns3_shim.la
backends_ns3_shim_ns3_shim_la_SOURCES = backends/ns3_shim/ns3_shim.cc backends/ns3_shim/shim_topology.c \
	backends/ns3_shim/upstream_config.c backends/ns3_shim/upstream_config.h \
	backends/ns3_shim/shim_topology.h backends/ns3_shim/cc_math.c backends/ns3_shim/cc_math.h
backends_ns3_shim_ns3_shim_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
backends_ns3_shim_ns3_shim_la_CFLAGS = $(BACKEND_CFLAGS)
# C++17 as ns-3 3.37 requires; C-only warning flags are left out.
backends_ns3_shim_ns3_shim_la_CXXFLAGS = -std=c++17 $(CONFIG_H_DEP) $(WARN_CXXFLAGS) $(SAN_CFLAGS) \
	$(NS3_CFLAGS)
backends_ns3_shim_ns3_shim_la_LDFLAGS = $(AM_LDFLAGS) $(backend_module_ldflags) \
	-Wl,--version-script=$(srcdir)/backends/ns3_shim/ns3_shim.map
EXTRA_backends_ns3_shim_ns3_shim_la_DEPENDENCIES = backends/ns3_shim/ns3_shim.map
backends_ns3_shim_ns3_shim_la_LIBADD = libvimana_backend.la $(NS3_LIBS)
endif


# The Garnet-style flit-level model (backends/garnet_stub/README.md); its
# module is named after the backend, garnet.
backend_LTLIBRARIES += backends/garnet_stub/garnet.la
backends_garnet_stub_garnet_la_SOURCES = backends/garnet_stub/garnet.c
backends_garnet_stub_garnet_la_CPPFLAGS = $(BACKEND_CPPFLAGS)
backends_garnet_stub_garnet_la_CFLAGS = $(BACKEND_CFLAGS)
backends_garnet_stub_garnet_la_LDFLAGS = $(AM_LDFLAGS) $(backend_module_ldflags)
backends_garnet_stub_garnet_la_LIBADD = libvimana_backend.la

EXTRA_DIST += backends/ns3_shim/README.md backends/ns3_shim/ns3_shim.map backends/garnet_stub/README.md
