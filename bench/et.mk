# ET read/write benchmark
