package io.spinlab.impl.testing;

import io.spinlab.impl.platform.HardwarePlatform;
import io.spinlab.model.platform.ForwardingPlatform;

/** A platform that forwards everything to the hardware; tests override what they fake. */
public class DelegatingPlatform extends ForwardingPlatform {

    public DelegatingPlatform() {
        super(HardwarePlatform.INSTANCE);
    }
}
