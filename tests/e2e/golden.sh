#!/usr/bin/env bash
echo "SKIP: golden not written yet"; exit 77
