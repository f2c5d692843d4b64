# `vimana backend-check`: a network backend through the conformance
# scenarios, on a mock host (docs/backends.md).
backend_check_sources = core/cmd/backend_check/backend_check.c core/cmd/backend_check/backend_check.h \
	core/cmd/backend_check/check_scenarios.c core/cmd/backend_check/check_scenarios.h \
	core/cmd/backend_check/mock_host.c core/cmd/backend_check/mock_host.h \
	core/cmd/backend_check/check_report.c core/cmd/backend_check/check_report.h
