// Node-side tests: nothing global yet; each file builds what it needs through tests/helpers.
export {};
