#pragma once

#include <QList>

namespace LockScope::RecordingSchema {

// The recording's schema (docs/recording.md#schema), one step per version. A new file runs every step in order; an
// older file runs the steps past its user_version, in one transaction, before anything is written to it. A step is
// never changed once shipped: a change is a new step.
struct Step
{
    int version;
    QList<const char *> statements;
};

const QList<Step> &steps();
inline int latestVersion()
{
    return steps().last().version;
}

} // namespace LockScope::RecordingSchema
