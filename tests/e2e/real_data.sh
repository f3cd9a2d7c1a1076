#!/usr/bin/env bash
echo "SKIP: real_data not written yet"; exit 77
