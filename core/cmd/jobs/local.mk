# `vimana --jobs`: several jobs on one cluster (a jobs file, generated
# workloads, the shared network). In the core library: tests link it.
libvimana_core_la_SOURCES += \
	core/cmd/jobs/jobs_spec.c core/cmd/jobs/jobs_spec.h \
	core/cmd/jobs/jobs_generate.c core/cmd/jobs/jobs_generate.h \
	core/cmd/jobs/job_net.c core/cmd/jobs/job_net.h \
	core/cmd/jobs/jobs_run.c core/cmd/jobs/jobs_run.h
