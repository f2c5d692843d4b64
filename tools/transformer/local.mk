# `vimana-et generate transformer`: model and closed forms, ET writer, CLI.
libvimana_tools_a_SOURCES += \
	tools/transformer/tf_model.c tools/transformer/tf_model.h \
	tools/transformer/tf_memory.c tools/transformer/tf_memory.h \
	tools/transformer/tf_moe.c tools/transformer/tf_moe.h \
	tools/transformer/tf_device.c tools/transformer/tf_device.h \
	tools/transformer/tf_device_file.c tools/transformer/tf_device_file.h \
	tools/transformer/tf_kernels.c tools/transformer/tf_kernels.h \
	tools/transformer/tf_write.c tools/transformer/tf_write.h \
	tools/transformer/tf_pb.c tools/transformer/tf_pb.h \
	tools/transformer/tf_durations.c tools/transformer/tf_durations.h \
	tools/transformer/cmd_transformer.c tools/transformer/cmd_transformer.h
