#!/usr/bin/env bash
echo "SKIP: cli_search not written yet"; exit 77
