# tests for etcmd
