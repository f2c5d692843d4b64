# tests for trace_link
