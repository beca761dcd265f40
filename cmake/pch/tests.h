// Precompiled for the test executables of tests/ (lockscope_pch_group): what core's header has, and QtTest's.
#pragma once
#include "core.h"
#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
