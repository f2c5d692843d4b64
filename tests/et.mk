# tests for et
