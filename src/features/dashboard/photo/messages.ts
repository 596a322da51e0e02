/**
 * Words of the photo said outside its parts: in its own catalog all the same, since they are only ever
 * said once a photo was taken, by which time the field has loaded that catalog.
 */
import { msg } from '@lingui/core/macro';

/** The tablet had no room for the photo: the reading was kept without it. */
export const PHOTO_LEFT_OUT = msg`Espace de stockage insuffisant sur la tablette : la saisie est enregistrée sans sa photo. Libérez de la place dans le panneau d’envoi.`;
