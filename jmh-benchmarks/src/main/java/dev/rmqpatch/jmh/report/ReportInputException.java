package dev.rmqpatch.jmh.report;

/** The JMH result file is missing, unreadable or not what the report needs; the message says which and why. */
public final class ReportInputException extends Exception {
    public ReportInputException(String message) {
        super(message);
    }

    public ReportInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
