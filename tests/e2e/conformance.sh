#!/usr/bin/env bash
echo "SKIP: conformance not written yet"; exit 77
