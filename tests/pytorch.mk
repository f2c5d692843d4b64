# tests for pytorch
