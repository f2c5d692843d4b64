# `vimana-et generate inference`: the inference workload (prefill, decode,
# KV cache) on the training generator's compute model, ET writer, CLI.
libvimana_tools_a_SOURCES += \
	tools/inference/inf_model.c tools/inference/inf_model.h \
	tools/inference/inf_emit.c tools/inference/inf_emit.h \
	tools/inference/inf_write.c tools/inference/inf_write.h \
	tools/inference/cmd_inference.c tools/inference/cmd_inference.h
# --arrivals FILE: the file, continuous batching, the serving traces.
libvimana_tools_a_SOURCES += \
	tools/inference/inf_arrivals.c tools/inference/inf_arrivals.h \
	tools/inference/inf_serving.c tools/inference/inf_serving.h \
	tools/inference/inf_serving_write.c tools/inference/inf_serving_write.h \
	tools/inference/cmd_serving.c tools/inference/cmd_serving.h
