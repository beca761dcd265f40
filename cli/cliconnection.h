#pragma once

#include "redis/connectionoptions.h"

#include <QCommandLineParser>

namespace LockScope::Cli {

// The connection options of conventions.md, shared by every command.
void addConnectionOptions(QCommandLineParser &parser);
// Builds the options; the password comes from the URL, --password-env or --password-stdin, never argv alone.
ConnectionOptions connectionFrom(const QCommandLineParser &parser, RedisError *error);

} // namespace LockScope::Cli
