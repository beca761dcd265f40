#pragma once

#include "redis/connectionoptions.h"
#include "ssh/sshhostkey.h"

#include <QCommandLineParser>

#include <optional>

namespace LockScope::Cli {

// The connection options of conventions.md, shared by every command.
void addConnectionOptions(QCommandLineParser &parser);
// Builds the options; the password comes from the URL, --password-env or --password-stdin, never argv alone.
ConnectionOptions connectionFrom(const QCommandLineParser &parser, RedisError *error);
// A line from the terminal (/dev/tty) with echo off; nothing when there is no terminal.
std::optional<QByteArray> readSecretFromTerminal(const QString &prompt);
// Shows an unknown host key's fingerprint on the terminal and asks whether to accept it; nothing without a terminal.
std::optional<bool> confirmHostKey(const SshHostKey &key, const SshOptions &ssh);

} // namespace LockScope::Cli
