#pragma once

#include "kinds/lockclassifier.h"
#include "ops/auditrecord.h"
#include "ops/forcerelease.h"

namespace LockScope::Ops {

// The audit record of a force release, built here for both front-ends so that they write the same fields for the
// same action (issue 32): holders_before (each holder shown, with its count), the guard (guard, expect_holders or
// expect_owner), holders_now when the guard failed, the kind of the script that ran as Redis held the lock at that
// moment (not as a monitor's older snapshot or a prompt showed it), and the outcome or the error.
// url: the server as the front-end shows it (never with a password); clientId: the client the action ran as.
AuditRecord forceReleaseRecord(const QString &url, const QByteArray &clientId, const ForceReleasePlan &plan,
    const QList<LockHolder> &shown, const ForceReleaseDone &done);

} // namespace LockScope::Ops
