import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { FaceVerdict } from "../../../shared/exam/face.ts";

/** What the member reads for each verdict of a face check (the server's, or the camera's problem). */
export const VERDICT_MESSAGES: Record<FaceVerdict, MessageDescriptor> = {
  pass: msg`Face check passed`,
  no_face: msg`No face was seen: face the camera in good light`,
  many_faces: msg`More than one face was seen: only you may be in front of the camera`,
  mismatch: msg`The face does not match your reference photo`,
  not_live: msg`The liveness check failed: use the live camera, not a photo`,
  no_reference: msg`You have no reference photo: enrol one in the member center`,
  camera_refused: msg`The camera was refused: allow this site to use the camera (in the browser's site settings) and try again`,
  no_camera: msg`No camera was found: this exam needs a camera`,
  camera_failed: msg`The camera could not be started: close other apps using it and try again`,
  bad_image: msg`The snapshot could not be read: try again`,
  missed: msg`A scheduled face check never reached the server: it counts as failed`,
};
