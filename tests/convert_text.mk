# tests for convert_text
