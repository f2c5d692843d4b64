# tests for timeline
