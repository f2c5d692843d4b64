# The host of the network backends: loading a plugin (backend_loader), the
# host side of network_api.h for the system layer (network_host), network
# faults and their links, the per-link report, device names. Part of the
# simulator core library; used by the driver and by `vimana backend-check`.
libvimana_core_la_SOURCES += \
	core/host/backend_loader.c core/host/backend_loader.h \
	core/host/backend_validate.c core/host/backend_validate.h \
	core/host/network_host.c core/host/network_host.h \
	core/host/network_faults.c core/host/network_faults.h \
	core/host/fault_links.c core/host/fault_links.h \
	core/host/link_report.c core/host/link_report.h \
	core/host/device_name.c core/host/device_name.h
