// SPDX-License-Identifier: Apache-2.0
package io.jccl.log;

import java.text.MessageFormat;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An application's System.LoggerFinder, as SLF4J's or log4j's bridge would be: it keeps every
 * record ("name LEVEL message"). Registered only in the class path of LogTest's child JVM (a
 * META-INF/services file the test writes), never in the test JVM's own.
 */
public final class RecordingFinder extends System.LoggerFinder {
    static final List<String> RECORDS = new CopyOnWriteArrayList<>();

    @Override
    public System.Logger getLogger(String name, Module module) {
        return new System.Logger() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public boolean isLoggable(Level level) {
                return true;
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
                RECORDS.add(name + " " + level + " " + msg);
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String format, Object... params) {
                RECORDS.add(name + " " + level + " " + (params == null ? format : MessageFormat.format(format, params)));
            }
        };
    }
}
