//! The command's errors: bad input (exit 2) or a failure while running (exit 1).

use std::fmt;

/// Why a command failed.
#[derive(Debug)]
pub enum CliError {
    /// The command line is wrong (an unknown option, a value out of range). Exit code 2.
    Usage(String),
    /// The user's input is wrong: options, hands, files. Exit code 2.
    Input(String),
    /// Something failed while running (I/O, an engine error). Exit code 1.
    Run(String),
    /// A failure the command's JSON output already reports (a record that does not
    /// verify): exit code 1, and nothing more on standard output.
    Shown(String),
}

impl CliError {
    /// A usage error with this message.
    pub fn usage(msg: impl Into<String>) -> CliError {
        CliError::Usage(msg.into())
    }

    /// An input error with this message.
    pub fn input(msg: impl Into<String>) -> CliError {
        CliError::Input(msg.into())
    }

    /// A run-time failure with this message.
    pub fn run(msg: impl Into<String>) -> CliError {
        CliError::Run(msg.into())
    }

    /// A failure already reported in the command's JSON output.
    pub fn shown(msg: impl Into<String>) -> CliError {
        CliError::Shown(msg.into())
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::Input(_) => 2,
            CliError::Run(_) | CliError::Shown(_) => 1,
        }
    }

    /// `"input"` or `"run"`, for JSON output.
    pub fn kind(&self) -> &'static str {
        match self {
            CliError::Usage(_) => "usage",
            CliError::Input(_) => "input",
            CliError::Run(_) | CliError::Shown(_) => "run",
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Input(m) | CliError::Run(m) | CliError::Shown(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for CliError {}

/// Result of a command.
pub type CliResult<T = ()> = Result<T, CliError>;
