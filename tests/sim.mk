# tests for sim
