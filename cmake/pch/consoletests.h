// Precompiled for the console's tests in ui/tests (lockscope_pch_group): the console's header and QtTest's, which
// with the widgets linked brings QtTest's widget helpers too.
#pragma once
#include "console.h"
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
